/**
 * The TensorFlow.js backend the probes train on: WebAssembly (several times faster than the pure-JS CPU backend on
 * these small matrices, and exact across runs), the CPU backend when WebAssembly cannot start.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';

let ready: Promise<string> | undefined;

/** Sets the backend once; returns its name. */
export function ensureBackend(): Promise<string> {
  ready ??= (async () => {
    const wanted = process.env.TEXTSTRESS_TF_BACKEND ?? 'wasm';
    try {
      if (!(await tf.setBackend(wanted))) throw new Error(`backend ${wanted} did not start`);
    } catch {
      await tf.setBackend('cpu');
    }
    await tf.ready();
    return tf.getBackend();
  })();
  return ready;
}
