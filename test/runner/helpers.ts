import { TextstressError } from '../../src/util/errors.ts';

/** The message and hint of the TextstressError a run is refused with (fails when it is not refused). */
export async function refusal(run: Promise<unknown>): Promise<{ message: string; hint: string }> {
  try {
    await run;
  } catch (err) {
    if (!(err instanceof TextstressError)) throw err;
    return { message: err.message, hint: err.hint ?? '' };
  }
  throw new Error('expected a refusal');
}
