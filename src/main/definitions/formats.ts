import { z } from 'zod';
import { MAX_PROMPT_LENGTH } from '../../shared/contract/automations.js';
import { resourceNameSchema } from '../../shared/contract/common.js';
import { triggersSchema } from '../../shared/contract/triggers.js';
import {
  authModeSchema,
  deliveryIdHeaderSchema,
  EVENT_TYPE_PATH_NOTE,
} from '../../shared/contract/webhooks.js';
import { eventTypePathSchema } from '../../shared/event-type.js';
import { linkFileSchema } from './link-definition.js';
import { genericHmacOptionsSchema, signatureSchemeSchema } from '../../shared/signature-schemes.js';
import { takesEventTypePath } from '../../shared/providers/index.js';
import { signatureOptionsProblem } from '../../shared/providers/auth-settings.js';

/** `webhooks/<name>.yaml` (seed §2.5.1, PRODUCT.md §8). The name is the file's name. */
export const webhookFileSchema = z
  .strictObject({
    authMode: authModeSchema.default('token'),
    signatureScheme: signatureSchemeSchema.optional(),
    signatureOptions: genericHmacOptionsSchema.optional(),
    secretName: resourceNameSchema,
    deliveryIdHeader: deliveryIdHeaderSchema.optional(),
    eventTypePath: eventTypePathSchema.optional(),
    enabled: z.boolean().default(true),
    /** The provider's hook that sends here (PRODUCT §19). */
    link: linkFileSchema.optional(),
  })
  .superRefine((file, ctx) => {
    if (file.authMode === 'signature' && !file.signatureScheme) {
      ctx.addIssue({
        code: 'custom',
        path: ['signatureScheme'],
        message: 'required when authMode is "signature"',
      });
    }
    if (file.authMode !== 'signature' && file.signatureScheme) {
      ctx.addIssue({
        code: 'custom',
        path: ['signatureScheme'],
        message: 'only for authMode "signature"',
      });
    }
    if (
      file.eventTypePath !== undefined &&
      !takesEventTypePath(file.authMode, file.signatureScheme ?? null)
    ) {
      ctx.addIssue({ code: 'custom', path: ['eventTypePath'], message: EVENT_TYPE_PATH_NOTE });
    }
    const optionsProblem = signatureOptionsProblem(
      file.signatureScheme,
      file.signatureOptions !== undefined,
    );
    if (optionsProblem !== null) {
      ctx.addIssue({ code: 'custom', path: ['signatureOptions'], message: optionsProblem });
    }
  });
export type WebhookFile = z.infer<typeof webhookFileSchema>;

/** The YAML front matter of `automations/<name>.md`; the text after it is the prompt. */
export const automationFrontMatterSchema = z.strictObject({
  name: resourceNameSchema.optional(),
  enabled: z.boolean().default(true),
  triggers: triggersSchema,
});

export const promptSchema = z
  .string()
  .refine((text) => text.trim() !== '', 'the prompt after the front matter must not be empty')
  .refine(
    (text) => text.length <= MAX_PROMPT_LENGTH,
    `the prompt must be at most ${MAX_PROMPT_LENGTH} characters`,
  );

/** Where a key sits in its file, so checks made later can still point at the line. */
export type LineOf = (path: ReadonlyArray<PropertyKey>) => number | null;

export interface WebhookDefinition extends WebhookFile {
  name: string;
  file: string;
  lineOf: LineOf;
}

export interface AutomationDefinition {
  name: string;
  enabled: boolean;
  triggers: z.infer<typeof triggersSchema>;
  prompt: string;
  file: string;
  lineOf: LineOf;
}
