import cliProgress from 'cli-progress';

/** A progress bar with ETA on stderr; silent when stderr is not a terminal or when disabled. */
export interface Progress {
  update(done: number): void;
  stop(): void;
}

export function startProgress(total: number, label: string, enabled = true): Progress {
  if (!enabled || !process.stderr.isTTY || total <= 0) return { update: () => {}, stop: () => {} };
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
  return {
    update: (done) => bar.update(done),
    stop: () => bar.stop(),
  };
}
