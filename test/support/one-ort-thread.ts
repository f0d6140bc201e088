/**
 * Setup file: the test processes open ONNX Runtime sessions with one intra-op thread unless the caller asks for
 * more. Two test files run at once on a 2-core machine, and ORT's default (a thread per core, spinning while it
 * waits) made them compete: the same inference took about 20% more CPU and no less time. Models and answers are
 * the real ones; children started as a user starts them (serve, workers, the packed CLI) keep ORT's default, and
 * test/cli/attack.test.ts compares a served model's results with these byte for byte.
 */
import { createRequire } from 'node:module';

type Create = ((...args: unknown[]) => Promise<unknown>) & { oneThread?: true };
const ort = createRequire(import.meta.url)('onnxruntime-node') as { InferenceSession: { create: Create } };
// Once per process (a worker that runs several files keeps its native modules).
if (!ort.InferenceSession.create.oneThread) {
  const create = ort.InferenceSession.create.bind(ort.InferenceSession);
  // create(uriOrBuffer, options?) gets the default; the (buffer, byteOffset, byteLength, options) form is unchanged.
  const oneThread: Create = (model, options, ...rest) =>
    options !== null && typeof options === 'object'
      ? create(model, { intraOpNumThreads: 1, ...options }, ...rest)
      : create(model, options, ...rest);
  oneThread.oneThread = true;
  ort.InferenceSession.create = oneThread;
}
