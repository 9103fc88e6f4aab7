/**
 * The end of a command-line entry point (admin.ts, doctor.ts): runs `main` and exits with the code it returns;
 * an error it throws is printed and exits 1.
 */
export function exitWith(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
