import cliProgress from 'cli-progress';
import { duration } from '../util/format.ts';
import type { ProgressSink } from '../kinds/run.ts';

/**
 * A run's rate and finish estimate, from the examples done since this process started it (a resumed run's earlier
 * examples are not counted in the rate): examples a second and seconds to go; null until one is done.
 */
export function rateAndEta(
  total: number,
  first: { done: number; at: number },
  now: { done: number; at: number },
): { perSecond: number; secondsLeft: number } | null {
  const done = now.done - first.done;
  const seconds = (now.at - first.at) / 1000;
  if (done <= 0 || seconds <= 0) return null;
  const perSecond = done / seconds;
  return { perSecond, secondsLeft: Math.max(0, total - now.done) / perSecond };
}

/** One progress line for a log (stderr not a terminal). */
export function progressLine(
  label: string,
  total: number,
  done: number,
  elapsed: number,
  eta: ReturnType<typeof rateAndEta>,
  now: Date,
): string {
  const share = total ? ` (${((100 * done) / total).toFixed(1)}%)` : '';
  const head = `${label}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} examples${share} in ${duration(elapsed)}`;
  if (!eta) return head;
  const finish = new Date(now.getTime() + eta.secondsLeft * 1000).toISOString().slice(11, 16);
  const rate = eta.perSecond >= 1 ? `${eta.perSecond.toFixed(1)} examples/s` : `${(1 / eta.perSecond).toFixed(1)} s an example`;
  return `${head} · ${rate} · finish in ≈ ${duration(eta.secondsLeft)} (about ${finish} UTC)`;
}

/** When a log gets a line: 20 s in (a first estimate well inside the first minute), then every minute. */
const FIRST_LINE_MS = 20_000;
const EVERY_MS = 60_000;

/**
 * Progress on stderr: on a terminal a bar with the rate and its ETA; in a log (stderr not a terminal) a line 20 s in and
 * every minute after with the rate and a finish estimate, so a long run says from its first minute when it will end.
 */
export function progressBars(): ProgressSink {
  return {
    start(label, total) {
      if (total <= 0) return { update: () => {}, stop: () => {} };
      const started = Date.now();
      let first: { done: number; at: number } | undefined;
      if (!process.stderr.isTTY) {
        let next = started + FIRST_LINE_MS;
        return {
          update: (done) => {
            const at = Date.now();
            // The first example done in this process: a resumed run's earlier ones are not in the rate.
            first ??= { done: done - 1, at: started };
            if (at < next || done >= total) return;
            next = at + EVERY_MS;
            const eta = rateAndEta(total, first, { done, at });
            process.stderr.write(`textstress: ${progressLine(label, total, done, (at - started) / 1000, eta, new Date(at))}\n`);
          },
          stop: () => {},
        };
      }
      const bar = new cliProgress.SingleBar(
        {
          format: `${label} [{bar}] {value}/{total} · {percentage}% · {rate} · ETA {eta_formatted} · {duration_formatted}`,
          stream: process.stderr,
          hideCursor: true,
          etaBuffer: 50,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0, { rate: '…/s' });
      return {
        update: (done) => {
          const at = Date.now();
          first ??= { done: done - 1, at: started };
          const eta = rateAndEta(total, first, { done, at });
          bar.update(done, { rate: eta ? `${eta.perSecond.toFixed(eta.perSecond >= 10 ? 0 : 2)}/s` : '…/s' });
        },
        stop: () => bar.stop(),
      };
    },
  };
}
