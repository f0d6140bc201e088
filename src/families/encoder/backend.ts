/**
 * The TensorFlow.js backend the probes train on: WebAssembly (several times faster than the pure-JS CPU backend on
 * these small matrices, and exact across runs), the CPU backend when WebAssembly cannot start.
 */
import type * as TF from '@tensorflow/tfjs';

let ready: Promise<typeof TF> | undefined;

/**
 * Loads TensorFlow.js (on first use only: it adds most of a second to every command that imports it) and sets the
 * backend once; resolves with the library.
 */
export function ensureBackend(): Promise<typeof TF> {
  ready ??= (async () => {
    const tf = await import('@tensorflow/tfjs');
    await import('@tensorflow/tfjs-backend-wasm');
    const wanted = process.env.TEXTSTRESS_TF_BACKEND ?? 'wasm';
    try {
      if (!(await tf.setBackend(wanted))) throw new Error(`backend ${wanted} did not start`);
    } catch {
      await tf.setBackend('cpu');
    }
    await tf.ready();
    return tf;
  })();
  return ready;
}
