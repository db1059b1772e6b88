/** The versioned user-data codec of the task assignor (src/assignment/user-data.ts). */
import { describe, expect, it } from 'vitest';
import { decodeAssignment, decodeSubscription, encodeAssignment, encodeSubscription, LATEST_SUPPORTED_VERSION, USER_DATA_VERSION } from '../../../src/assignment/user-data.js';
import { StreamsError } from '../../../src/errors.js';

const subscription = { processId: 'p-1', applicationServer: 'host-a:7070', previousActive: ['0_1', '1_0'], taskOffsetSums: { '0_2': 1234 } };
const assignment = {
  activeTasks: ['0_1'],
  standbyTasks: [],
  partitionsByHost: [{ host: 'host-a:7070', partitions: [{ topic: 'in', partition: 1 }] }, { host: 'host-b:7070', partitions: [] }],
  standbyPartitionsByHost: [],
};

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof StreamsError ? error.code : 'not a StreamsError';
  }
  return undefined;
}

describe('assignor user data', () => {
  it('round-trips a subscription and starts with the big-endian version', () => {
    const bytes = encodeSubscription(subscription);
    expect(bytes.readInt32BE(0)).toBe(USER_DATA_VERSION);
    expect(decodeSubscription(bytes)).toEqual({ version: 1, latestSupportedVersion: LATEST_SUPPORTED_VERSION, ...subscription });
  });

  it('round-trips a subscription without applicationServer', () => {
    const { applicationServer: _, ...rest } = subscription;
    const decoded = decodeSubscription(encodeSubscription(rest));
    expect(decoded.applicationServer).toBeUndefined();
    expect(decoded.previousActive).toEqual(['0_1', '1_0']);
  });

  it('round-trips an assignment (partitions by host included)', () => {
    expect(decodeAssignment(encodeAssignment(assignment))).toEqual({ version: 1, latestSupportedVersion: 1, ...assignment });
  });

  it('round-trips an assignment with standbys, standby hosts and nextRebalanceMs', () => {
    const withProbing = {
      ...assignment,
      standbyTasks: ['0_0', '1_2'],
      standbyPartitionsByHost: [{ host: 'host-a:7070', partitions: [{ topic: 'in', partition: 0 }] }],
      nextRebalanceMs: 1_780_000_000_000,
    };
    expect(decodeAssignment(encodeAssignment(withProbing))).toEqual({ version: 1, latestSupportedVersion: 1, ...withProbing });
  });

  it('decodes an older assignment payload without nextRebalanceMs (none scheduled)', () => {
    const old = Buffer.concat([Buffer.from([0, 0, 0, 1]), Buffer.from(JSON.stringify({ activeTasks: ['0_1'], standbyTasks: ['0_0'], partitionsByHost: [], standbyPartitionsByHost: [] }))]);
    const decoded = decodeAssignment(old);
    expect(decoded.nextRebalanceMs).toBeUndefined();
    expect('nextRebalanceMs' in decoded).toBe(false);
    expect(decoded.standbyTasks).toEqual(['0_0']);
    const bad = Buffer.concat([Buffer.from([0, 0, 0, 1]), Buffer.from(JSON.stringify({ activeTasks: [], nextRebalanceMs: 'soon' }))]);
    expect(() => decodeAssignment(bad)).toThrow(/nextRebalanceMs is not a number/);
  });

  it('reads a later version, ignoring fields it does not know', () => {
    const json = Buffer.from(JSON.stringify({ ...subscription, latestSupportedVersion: 3, warmups: ['0_0'] }));
    const bytes = Buffer.concat([Buffer.from([0, 0, 0, 3]), json]);
    const decoded = decodeSubscription(bytes);
    expect(decoded.version).toBe(3);
    expect(decoded.latestSupportedVersion).toBe(3);
    expect(decoded.taskOffsetSums).toEqual({ '0_2': 1234 });
  });

  it('refuses bytes that are no sluice user data, naming the problem', () => {
    expect(codeOf(() => decodeSubscription(Buffer.alloc(0)))).toBe('ASSIGNMENT_USER_DATA_INVALID');
    expect(codeOf(() => decodeSubscription(Buffer.from([0, 0, 0, 1, 0x7b])))).toBe('ASSIGNMENT_USER_DATA_INVALID');
    expect(codeOf(() => decodeSubscription(Buffer.from([0, 0, 0, 0])))).toBe('ASSIGNMENT_USER_DATA_INVALID');
    const bad = Buffer.concat([Buffer.from([0, 0, 0, 1]), Buffer.from(JSON.stringify({ processId: 'x', previousActive: ['zero'] }))]);
    expect(() => decodeSubscription(bad)).toThrow(/previousActive is not a list of task ids/);
    const badHost = Buffer.concat([Buffer.from([0, 0, 0, 1]), Buffer.from(JSON.stringify({ activeTasks: [], partitionsByHost: [{ host: 'h:1', partitions: [['t', 'x']] }] }))]);
    expect(() => decodeAssignment(badHost)).toThrow(/not \[topic, partition\]/);
  });
});
