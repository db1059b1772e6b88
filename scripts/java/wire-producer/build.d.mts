// Types of scripts/java/wire-producer/build.mjs (used by test/helpers/java-wire-producer.ts).

export declare const wirePomFile: string;
export declare const wireProducerSource: string;
export declare const wireDecoderSource: string;
/** Folder of the jars of scripts/java/wire-producer/pom.xml. */
export declare function wireLibsDir(): string;
/** True when those jars are cached (no Maven needed). */
export declare function wireJarsCached(): boolean;
/** Fetches the jars (once), compiles WireProducer.java and WireDecoder.java (once) and returns how to run them. */
export declare function ensureWireProducer(
  kafkaVersion: string,
  options?: { log?: (line: string) => void },
): Promise<{ java: string; classPath: string; downloaded: boolean; compiled: boolean }>;
