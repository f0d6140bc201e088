/** Intervals and paired tests for every figure textstress reports (pure maths; no I/O). */
export * from './interval.ts';
export * from './student.ts';
export * from './tests.ts';
