/**
 * What kafkajs does not hand out of a group join, captured from the protocol
 * answers. This wraps request definitions of sluice's private kafkajs once
 * (`patches.ts`), like the Produce v8 registration:
 * - JoinGroup: kafkajs' GROUP_JOIN event carries member id and assignment
 *   only, not the generation id: recorded per member id from every answer;
 * - SyncGroup: kafkajs decodes the member's `MemberAssignment` and drops its
 *   user data (a custom assignor's, sluice's task assignor): the raw
 *   assignment bytes are recorded per member id (from the request's
 *   `memberId`), read once by the group consumer at GROUP_JOIN.
 */
import type { KafkaJsInternals, KafkaJsRequestDefinitions } from './kafkajs-internals.js';

const JOIN_PATCHED = Symbol.for('sluice.kafkajs.joinGeneration');
const SYNC_PATCHED = Symbol.for('sluice.kafkajs.syncAssignment');
const generations = new Map<string, number>();
const assignments = new Map<string, Buffer>();

type Definitions = KafkaJsRequestDefinitions & { [key: symbol]: true | undefined };

/** Wraps the response parser of every version of `module` to see `(request args, parsed answer)`; idempotent per `mark`. */
function captureResponses(internals: KafkaJsInternals, module: string, mark: symbol, seen: (args: Record<string, unknown>, result: unknown) => void): void {
  const definitions = internals.load<Definitions>(module);
  if (definitions[mark]) return;
  const original = definitions.protocol;
  definitions.protocol = ({ version }) => {
    const factory = original({ version });
    return (args) => {
      const built = factory(args);
      const parse = built.response.parse.bind(built.response);
      return {
        ...built,
        response: {
          ...built.response,
          parse: async (data: unknown) => {
            const result = await parse(data);
            seen(args, result);
            return result;
          },
        },
      };
    };
  };
  definitions[mark] = true;
}

/** Wraps JoinGroup's response parser in `internals` (idempotent). */
export function registerJoinGenerationCapture(internals: KafkaJsInternals): void {
  captureResponses(internals, 'protocol/requests/joinGroup/index.js', JOIN_PATCHED, (_args, parsed) => {
    const result = parsed as { memberId?: string; generationId?: number } | undefined;
    if (typeof result?.memberId === 'string' && typeof result.generationId === 'number') generations.set(result.memberId, result.generationId);
  });
}

/** Wraps SyncGroup's response parser in `internals` (idempotent). */
export function registerSyncAssignmentCapture(internals: KafkaJsInternals): void {
  captureResponses(internals, 'protocol/requests/syncGroup/index.js', SYNC_PATCHED, (args, parsed) => {
    const result = parsed as { memberAssignment?: unknown } | undefined;
    if (typeof args.memberId === 'string' && Buffer.isBuffer(result?.memberAssignment)) assignments.set(args.memberId, result.memberAssignment);
  });
}

/** The generation id of the last JoinGroup answer to `memberId`, if seen. */
export function generationOf(memberId: string): number | undefined {
  return generations.get(memberId);
}

/** The raw `MemberAssignment` of the last SyncGroup answer to `memberId` (taken: a second call gives undefined). */
export function takeSyncAssignment(memberId: string): Buffer | undefined {
  const raw = assignments.get(memberId);
  assignments.delete(memberId);
  return raw;
}

/** Forgets a member (on close). */
export function forgetMember(memberId: string): void {
  generations.delete(memberId);
  assignments.delete(memberId);
}
