import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { IllegalStateError } from '../../../src/errors.js';
import { checkTransition, StateMachine, type TransitionTable } from '../../../src/internal/state-machine.js';

type S = 'A' | 'B' | 'C' | 'END';
const TABLE: TransitionTable<S> = { A: ['B', 'END'], B: ['C', 'END'], C: ['B', 'END'], END: [] };

describe('StateMachine', () => {
  it('moves along the table and refuses other moves naming the states a move is allowed from', () => {
    const sm = new StateMachine<S>('Thing', TABLE, 'A');
    sm.transition('B');
    expect(sm.state).toBe('B');
    expect(() => sm.transition('A')).toThrow(IllegalStateError);
    expect(() => sm.transition('A')).toThrow('Thing: cannot move from B to A; allowed only from no state');
    expect(sm.tryTransition('A')).toBe(false);
    expect(sm.state).toBe('B');
  });

  it('a guarded method in the wrong state names the state(s) that allow it', () => {
    const sm = new StateMachine<S>('Thing', TABLE, 'A', { guards: { run: ['B', 'C'] } });
    expect(sm.allows('run')).toBe(false);
    expect(() => sm.guard('run')).toThrow('Thing.run() is only allowed in state B | C; current state: A');
    expect(() => sm.require('stop', ['C'])).toThrow('Thing.stop() is only allowed in state C; current state: A');
    sm.transition('B');
    expect(() => sm.guard('run')).not.toThrow();
  });

  it('keeps a machine-specific wording', () => {
    const sm = new StateMachine<S>('Task 0_1', TABLE, 'A', {
      messages: { wrongState: (d) => `${d.what} cannot ${d.method} in state ${d.state}; allowed in: ${d.allowed.join(', ')}` },
    });
    expect(() => sm.require('process', ['B'])).toThrow('Task 0_1 cannot process in state A; allowed in: B');
  });

  it('state$ emits the current state first, then each change, and completes at a terminal state', async () => {
    const sm = new StateMachine<S>('Thing', TABLE, 'A');
    const all = lastValueFrom(sm.state$.pipe(toArray()));
    sm.transition('B');
    sm.transition('C');
    sm.transition('END');
    expect(await all).toEqual(['A', 'B', 'C', 'END']);
    // a late subscriber still sees the final state, then the completion
    expect(await lastValueFrom(sm.state$.pipe(toArray()))).toEqual(['END']);
  });

  it('state$ does not complete before a terminal state', () => {
    const sm = new StateMachine<S>('Thing', TABLE, 'A');
    let completed = false;
    sm.state$.subscribe({ complete: () => (completed = true) });
    sm.transition('B');
    expect(completed).toBe(false);
    sm.complete();
    expect(completed).toBe(true);
  });

  it('checkTransition guards state held on a plain record', () => {
    expect(() => checkTransition('Rec', TABLE, 'END', 'A')).toThrow(IllegalStateError);
    expect(() => checkTransition('Rec', TABLE, 'A', 'B')).not.toThrow();
  });
});
