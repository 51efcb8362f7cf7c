// The bench's arithmetic, shared by its sections: every figure is a median over repetitions, with
// its range, rounded as reported.

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const round = (x, d = 0) => (x === undefined || Number.isNaN(x) ? null : Number(x.toFixed(d)));

/** Median, min and max (rounded to whole milliseconds, or what `d` says) and how many. */
export const stats = (xs, d = 0) => ({
  median: round(median(xs), d),
  min: round(Math.min(...xs), d),
  max: round(Math.max(...xs), d),
  n: xs.length,
});
