export * from './types.ts';
export { UntargetedClassification, TargetConfidence } from './classification.ts';
export { EntityF1Drop } from './entity.ts';
export { QaF1Drop, answerStatus } from './qa.ts';
export { Invariance } from './invariance.ts';
