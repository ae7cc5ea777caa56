/** Who asked: carried by every command, and by the command pipeline into every event's metadata. */
export interface CommandOrigin {
  readonly programToken: string;
  readonly correlationId: string;
  readonly causationId: string | null;
}
