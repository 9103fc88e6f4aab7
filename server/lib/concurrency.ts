/**
 * A per-process cap on how many runs of one kind of work (upload inspections, DOCX conversions) happen at once;
 * the others wait, first come first served. The cap is passed on each call (it comes from the configuration),
 * and a slot is handed straight from a finishing run to the next waiting one.
 */
export type TLimited = <T>(limit: number, work: () => Promise<T>) => Promise<T>;

export function concurrencyLimit(): TLimited {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (limit, work) => {
    if (running < limit) running++;
    // The slot is handed over by the run that ends, so `running` is unchanged when this resolves.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
