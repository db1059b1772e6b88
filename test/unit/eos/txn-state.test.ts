import { describe, expect, it } from 'vitest';
import { IllegalStateError } from '../../../src/errors.js';
import { ProducerState, TxnStateMachine } from '../../../src/eos/producer-types.js';

describe('TxnStateMachine', () => {
  it('guards name the allowed states', () => {
    const sm = new TxnStateMachine();
    expect(() => sm.guard('commitTransaction')).toThrow(IllegalStateError);
    expect(() => sm.guard('commitTransaction')).toThrow(/state UNINITIALIZED; allowed in state\(s\): IN_TRANSACTION/);
  });

  it('refuses transitions missing from the table', () => {
    const sm = new TxnStateMachine();
    expect(() => sm.transition(ProducerState.IN_TRANSACTION)).toThrow(/UNINITIALIZED -> IN_TRANSACTION/);
    sm.transition(ProducerState.INITIALIZING);
    sm.transition(ProducerState.READY);
    sm.transition(ProducerState.IN_TRANSACTION);
    sm.transition(ProducerState.FATAL_ERROR);
    expect(() => sm.transition(ProducerState.READY)).toThrow(IllegalStateError);
    sm.transition(ProducerState.CLOSED);
    expect(sm.state).toBe('CLOSED');
  });
});
