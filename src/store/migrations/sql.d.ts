/** SQL files are imported as text, so `bun build --compile` embeds them in the binary. */
declare module "*.sql" {
  const sql: string;
  export default sql;
}
