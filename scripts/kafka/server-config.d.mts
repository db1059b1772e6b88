// Types of scripts/kafka/server-config.mjs.
export declare function randomClusterId(): string;
/** server.properties of the local broker; `overrides` replace or add properties (the secure broker's). */
export declare function serverProperties(options: { port: number; controllerPort: number; dataDir: string; overrides?: Record<string, string> }): string;
