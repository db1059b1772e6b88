// Types of scripts/kafka/process.mjs.
export declare function isAlive(pid: number | undefined): boolean;
export declare function isOurBroker(pid: number, port: number): boolean;
export declare function terminate(pid: number, options?: { timeoutMs?: number }): Promise<'not-running' | 'terminated' | 'killed'>;
export declare function portFree(port: number): Promise<boolean>;
export declare function freePort(): Promise<number>;
export declare function sleep(ms: number): Promise<void>;
