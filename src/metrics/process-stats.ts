/**
 * summary.json's `process`: this process's traffic. `disk_cache_hits`: answers read from the persistent cache;
 * `spent`: what a metered endpoint billed in this process (requests really sent, tokens, dollars, retries).
 */
export interface ProcessStats {
  requests: number;
  cache_hits: number;
  cache_hit_rate: number | null;
  disk_cache_hits?: number;
  model_inferences: number;
  spent?: {
    requests: number;
    input_tokens: number;
    output_tokens: number;
    cost_usd: number | null;
    retries: number;
    rate_limited: number;
    lowest_concurrency?: number;
  };
  defence?: Record<string, unknown>;
}
