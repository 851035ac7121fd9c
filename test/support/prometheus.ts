import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface PrometheusSample {
  labels?: Record<string, string>;
  value?: string;
  count?: string;
  sum?: string;
  buckets?: Record<string, string>;
}

export interface PrometheusFamily {
  name: string;
  help: string;
  type: string;
  metrics: PrometheusSample[];
}

/** Parses the text exposition format with a real parser (never a regex over the text). */
export function parseMetrics(text: string): Map<string, PrometheusFamily> {
  const families = parsePrometheusTextFormat(text) as PrometheusFamily[];
  return new Map(families.map((family) => [family.name, family]));
}

/** The value of the sample whose labels include `labels`, or 0 when there is none. */
export function sampleValue(
  families: Map<string, PrometheusFamily>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const family = families.get(name);
  if (!family) throw new Error(`no metric ${name}`);
  const sample = family.metrics.find((m) =>
    Object.entries(labels).every(([key, value]) => m.labels?.[key] === value),
  );
  return sample?.value === undefined ? 0 : Number(sample.value);
}
