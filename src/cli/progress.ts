import cliProgress from 'cli-progress';
import type { ProgressSink } from '../kinds/run.ts';

/** Progress bars with ETA on stderr; silent when stderr is not a terminal. */
export function progressBars(): ProgressSink {
  return {
    start(label, total) {
      if (!process.stderr.isTTY || total <= 0) return { update: () => {}, stop: () => {} };
      const bar = new cliProgress.SingleBar(
        {
          format: `${label} [{bar}] {value}/{total} · {percentage}% · ETA {eta_formatted} · {duration_formatted}`,
          stream: process.stderr,
          hideCursor: true,
          etaBuffer: 50,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
      return { update: (done) => bar.update(done), stop: () => bar.stop() };
    },
  };
}
