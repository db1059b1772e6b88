/**
 * kafkajs does not expose the group generation id (its GROUP_JOIN event
 * carries member id and assignment only). This wraps the JoinGroup request
 * definitions of sluice's private kafkajs once (`patches.ts`), like the
 * Produce v8 registration, and records the generation id of every successful
 * JoinGroup answer by member id.
 */
import type { KafkaJsInternals, KafkaJsRequestDefinitions } from './kafkajs-internals.js';

const PATCHED = Symbol.for('sluice.kafkajs.joinGeneration');
const generations = new Map<string, number>();

/** Wraps JoinGroup's response parser in `internals` (idempotent). */
export function registerJoinGenerationCapture(internals: KafkaJsInternals): void {
  const definitions = internals.load<KafkaJsRequestDefinitions & { [PATCHED]?: true }>('protocol/requests/joinGroup/index.js');
  if (definitions[PATCHED]) return;
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
            const result = (await parse(data)) as { memberId?: string; generationId?: number };
            if (typeof result?.memberId === 'string' && typeof result.generationId === 'number') {
              generations.set(result.memberId, result.generationId);
            }
            return result;
          },
        },
      };
    };
  };
  definitions[PATCHED] = true;
}

/** The generation id of the last JoinGroup answer to `memberId`, if seen. */
export function generationOf(memberId: string): number | undefined {
  return generations.get(memberId);
}

/** Forgets a member (on close). */
export function forgetMember(memberId: string): void {
  generations.delete(memberId);
}
