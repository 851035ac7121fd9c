// The package ships no types; test/support/prometheus.ts gives its output a shape.
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
