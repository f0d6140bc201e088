/**
 * One measurement of bench/speed/load-memory.ts, in a process of its own (so RSS is its alone): prints one JSON line.
 *   bare                  the libraries imported, nothing loaded
 *   model  DIR [OPTS]     loadTransformersModel(DIR, OPTS): load time and RSS, then RSS after predict() of 32 texts
 *                         of about 128 tokens and of 24 of about 512 (the adapter's run limits apply)
 *   encoder DIR           loadEncoder(DIR) (the probes' session with hidden states as outputs): load time and RSS
 */
import { loadEncoder } from '../../src/models/encoder/index.ts';
import { loadTransformersModel } from '../../src/models/transformers/load.ts';
import type { ModelInput } from '../../src/models/types.ts';
import { rssMb } from './support.ts';

const [mode, dir, opts] = process.argv.slice(2);
const peakMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);
const out: Record<string, unknown> = { mode, rss_start_mb: rssMb() };

/** `n` texts of about `words` words (distinct, so no cache answers them). */
const texts = (n: number, words: number): ModelInput[] =>
  Array.from({ length: n }, (_, i) => ({
    kind: 'text',
    text: Array.from(
      { length: words },
      (_, j) => ['film', 'story', 'acting', 'plot', 'scene', 'music'][(i + j * 5) % 6] + String((i * 31 + j) % 97),
    ).join(' '),
  }));

if (mode === 'model') {
  const t0 = performance.now();
  const model = await loadTransformersModel(dir!, opts ? (JSON.parse(opts) as object) : {});
  out.load_seconds = (performance.now() - t0) / 1000;
  out.rss_loaded_mb = rssMb();
  await model.predict(texts(32, 40));
  out.rss_after_128_mb = rssMb();
  out.peak_after_128_mb = peakMb();
  await model.predict(texts(24, 170));
  out.rss_after_512_mb = rssMb();
  await model.close();
} else if (mode === 'encoder') {
  const t0 = performance.now();
  const encoder = await loadEncoder(dir!);
  out.load_seconds = (performance.now() - t0) / 1000;
  out.rss_loaded_mb = rssMb();
  // What the process keeps once the garbage collector has freed the buffers loading used.
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  out.rss_after_gc_mb = rssMb();
  await encoder.close();
} else if (mode !== 'bare') {
  throw new Error(`unknown mode ${mode}`);
}
out.peak_mb = peakMb();
console.log(JSON.stringify(out));
