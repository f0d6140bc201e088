/**
 * The summary every TextAttack user knows ("Attack Results": textattack/loggers/attack_log_manager.py and
 * textattack/metrics/attack_metrics/), computed from our results with TextAttack's own definitions, each figure
 * with its 95% interval, so a run can be read side by side with a TextAttack log:
 *
 * - skipped: the clean prediction was already wrong (TextAttack skips only those); failed: every other
 *   unsuccessful attack, including examples we skip because no word may be edited (TextAttack searches them and
 *   fails);
 * - original accuracy = (n − skipped) / n; accuracy under attack = failed / n;
 *   attack success rate = successful / (successful + failed);
 * - average perturbed word % = mean, over successful attacks that changed a word, of 100 · words changed / words
 *   of the attacked text; average words per input = mean words of the attacked text over all n;
 * - average queries = mean, over attacked (non-skipped) examples, of every input sent to the model for it, the clean
 *   one and repeats included (TextAttack's goal function counts each text it is asked for).
 *
 * Shares are 0–1 here, as in the rest of summary.json (TextAttack prints percentages).
 */
import type { ExampleResult } from '../core/result.ts';
import { bootstrapMean, wilson, type Interval } from '../stats/index.ts';
import { withInterval } from './show.ts';
import { formatTable } from '../util/table.ts';

/** The "Attack Results" figures, TextAttack's names in snake_case, with intervals. */
export interface TextAttackSummary {
  successful_attacks: number;
  failed_attacks: number;
  skipped_attacks: number;
  original_accuracy: number | null;
  accuracy_under_attack: number | null;
  attack_success_rate: number | null;
  avg_perturbed_word_pct: number | null;
  avg_words_per_input: number | null;
  avg_num_queries: number | null;
  intervals: {
    original_accuracy: Interval;
    accuracy_under_attack: Interval;
    attack_success_rate: Interval;
    avg_perturbed_word_pct: Interval;
    avg_words_per_input: Interval;
    avg_num_queries: Interval;
  };
}

/** Streams results (file order) into a {@link TextAttackSummary}; a few numbers per example for the bootstrap. */
export class TextAttackTally {
  private n = 0;
  private successful = 0;
  private failed = 0;
  private skipped = 0;
  private readonly pct: number[] = [];
  private readonly words: number[] = [];
  private readonly queries: number[] = [];

  constructor(private readonly seed: number | string = 0) {}

  add(r: ExampleResult): void {
    this.n++;
    this.words.push(r.num_words);
    if (!r.original_correct) {
      this.skipped++;
      return;
    }
    this.queries.push(r.requests);
    if (r.status !== 'succeeded') {
      this.failed++;
      return;
    }
    this.successful++;
    if (r.words_perturbed > 0 && r.num_words > 0) this.pct.push((100 * r.words_perturbed) / r.num_words);
  }

  finish(): TextAttackSummary {
    const seed = (name: string): { seed: string } => ({ seed: `${String(this.seed)}\u0001textattack.${name}` });
    const attacked = this.successful + this.failed;
    const iv = {
      original_accuracy: wilson(this.n - this.skipped, this.n),
      accuracy_under_attack: wilson(this.failed, this.n),
      attack_success_rate: wilson(this.successful, attacked),
      avg_perturbed_word_pct: bootstrapMean(this.pct, seed('avg_perturbed_word_pct')),
      avg_words_per_input: bootstrapMean(this.words, seed('avg_words_per_input')),
      avg_num_queries: bootstrapMean(this.queries, seed('avg_num_queries')),
    };
    return {
      successful_attacks: this.successful,
      failed_attacks: this.failed,
      skipped_attacks: this.skipped,
      original_accuracy: iv.original_accuracy.value,
      accuracy_under_attack: iv.accuracy_under_attack.value,
      attack_success_rate: iv.attack_success_rate.value,
      avg_perturbed_word_pct: mean(this.pct),
      avg_words_per_input: mean(this.words),
      avg_num_queries: mean(this.queries),
      intervals: iv,
    };
  }
}

function mean(xs: readonly number[]): number | null {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/** TextAttack's summary of a set of results. */
export function textAttackSummary(results: Iterable<ExampleResult>, seed: number | string = 0): TextAttackSummary {
  const t = new TextAttackTally(seed);
  for (const r of results) t.add(r);
  return t.finish();
}

/** Reads a summary's `details.textattack` back (undefined when the run has none). */
export function textAttackOf(details: Record<string, unknown> | undefined): TextAttackSummary | undefined {
  const t = details?.['textattack'] as TextAttackSummary | undefined;
  return t && typeof t === 'object' && typeof t.successful_attacks === 'number' && t.intervals ? t : undefined;
}

/** The rows of TextAttack's "Attack Results" table, labelled as TextAttack labels them, each with its interval. */
export function textAttackRows(t: TextAttackSummary): [string, string][] {
  const iv = t.intervals;
  return [
    ['Number of successful attacks', String(t.successful_attacks)],
    ['Number of failed attacks', String(t.failed_attacks)],
    ['Number of skipped attacks', String(t.skipped_attacks)],
    ['Original accuracy', withInterval(t.original_accuracy, iv.original_accuracy)],
    ['Accuracy under attack', withInterval(t.accuracy_under_attack, iv.accuracy_under_attack)],
    ['Attack success rate', withInterval(t.attack_success_rate, iv.attack_success_rate)],
    ['Average perturbed word %', withInterval(t.avg_perturbed_word_pct, iv.avg_perturbed_word_pct, 'percent')],
    ['Average num. words per input', withInterval(t.avg_words_per_input, iv.avg_words_per_input, 'number')],
    ['Avg num queries', withInterval(t.avg_num_queries, iv.avg_num_queries, 'number')],
  ];
}

/** TextAttack's table for the terminal, titled so it is not read as our own figures. */
export function textAttackTable(t: TextAttackSummary): string {
  return formatTable(textAttackRows(t), 'Attack Results, as TextAttack defines them');
}

/** What the terminal says under TextAttack's table: where its figures differ from ours above it. */
export const TEXTATTACK_NOTE = [
  "TextAttack's definitions differ from ours above: an example no word of which may be edited is a failed attack",
  'there (we skip it); its queries are every text sent for an attacked example, repeats and the clean one included',
  '(ours: distinct queries over all examples); its words perturbed are a share of all words of the text (ours: of',
  'the words the attack could edit). docs/classic.md maps each figure.',
].join('\n');
