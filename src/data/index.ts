export * from './types.ts';
export { checkFile, collect, readLines, type Line } from './rows.ts';
export * from './glue.ts';
export * from './tabular.ts';
export * from './squad.ts';
export * from './conll.ts';
export * from './entities.ts';
export * from './answers.ts';
export * from './open.ts';
