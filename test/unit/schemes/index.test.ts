import { describe, expect, it } from 'vitest';
import { getSignatureScheme, signatureSchemes } from '../../../src/main/ingress/schemes/index.js';
import { SIGNATURE_SCHEMES } from '../../../src/shared/signature-schemes.js';

describe('signature scheme registry', () => {
  it.each(SIGNATURE_SCHEMES)('has %s, under its own name', (name) => {
    const scheme = getSignatureScheme(name);
    expect(scheme).toBe(signatureSchemes[name]);
    expect(scheme.name).toBe(name);
  });

  it('has no scheme beyond the ones a webhook may name', () => {
    expect(Object.keys(signatureSchemes).sort()).toEqual([...SIGNATURE_SCHEMES].sort());
  });

  it('names delivery headers in lower case (headersDistinct keys)', () => {
    for (const scheme of Object.values(signatureSchemes)) {
      expect(scheme.deliveryIdHeader).toBe(scheme.deliveryIdHeader?.toLowerCase() ?? null);
    }
  });
});
