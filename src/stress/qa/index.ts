/** QA stress tests on SQuAD v1.1 (Jia & Liang 2017 adversarial SQuAD, and more to come). */
export * from './adversarial-squad.ts';
