/** Hand-written sentences for the probing tests (ours, no licence needed). */
export const SENTENCES = [
  'The children walk to school every morning.',
  'She has written three books about the war.',
  'He quickly opened the door and left the room.',
  'A dog was barking in the garden all night.',
  'They are going to the market on Sunday.',
  'We bought a new car last year.',
  'The man said that he would come back tomorrow.',
  'My friends live in a big house near the city.',
];
