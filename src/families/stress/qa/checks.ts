/** Checks the QA stress tests make on an example before changing it. */
import type { QaExample } from '../../../data/types.ts';
import { TextstressError } from '../../../util/errors.ts';

/**
 * Each gold answer's text must be at its offset in the context: the tests keep or move the characters at those
 * offsets, so a wrong offset would give a silently wrong score. `test` names the test in the hint ("the noise
 * test"). Throws a TextstressError naming the example.
 */
export function checkAnswerOffsets(example: QaExample, test: string): void {
  example.answers.forEach((a, k) => {
    const found = example.context.slice(a.start, a.start + a.text.length);
    if (!Number.isInteger(a.start) || a.start < 0 || found !== a.text) {
      throw new TextstressError(
        `answer ${k + 1} is ${JSON.stringify(a.text)} but the context at offset ${a.start} reads ${JSON.stringify(found)}.`,
        {
          where: `QA example ${example.id}`,
          hint: `Fix the answer offset (answer_start) in the data; ${test} needs each gold answer at its offset.`,
        },
      );
    }
  });
}
