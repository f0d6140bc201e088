/** What several benchmarks share: a call-counting model wrapper, a local `textstress serve`, the median run. */
import { spawn, type ChildProcess } from 'node:child_process';
import type { ModelAdapter } from '../src/models/types.ts';

/** Counts predict() calls and rows; `perRequest` splits a call into the HTTP requests it becomes. */
export function counting(model: ModelAdapter, perRequest = Infinity): ModelAdapter & { calls: number; requests: number; rows: number } {
  const c = {
    info: model.info,
    ...(model.concurrency !== undefined ? { concurrency: model.concurrency } : {}),
    calls: 0,
    requests: 0,
    rows: 0,
    async predict(inputs: Parameters<ModelAdapter['predict']>[0]) {
      c.calls++;
      c.rows += inputs.length;
      c.requests += Number.isFinite(perRequest) ? Math.ceil(inputs.length / perRequest) : 1;
      return model.predict(inputs);
    },
  };
  return c;
}

/** `textstress serve` of a model on a free local port, answering each request after `latency` ms. */
export function startServer(model: string, latency: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['bin/textstress.mjs', 'serve', '--model', model, '--port', '0', '--latency-ms', String(latency), '--max-concurrent', '64'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /serving .* at (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1]!, child });
    });
    child.on('exit', () => reject(new Error(`serve exited: ${err}`)));
  });
}

/** The run with the median time (its other numbers come with it). */
export function median<T extends Record<string, unknown>>(xs: readonly T[]): T {
  return [...xs].sort((a, b) => Number(a.seconds) - Number(b.seconds))[Math.floor(xs.length / 2)]!;
}
