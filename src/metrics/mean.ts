/** Running sums for one mean, added in file order (so a streamed mean equals the mean of the array). */
export class Mean {
  private sum = 0;
  private n = 0;
  add(x: number): void {
    this.sum += x;
    this.n++;
  }
  get value(): number | null {
    return this.n ? this.sum / this.n : null;
  }
}
