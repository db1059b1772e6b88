// Types of scripts/kafka/secure.mjs (plain Node ESM, used by the vitest global setup and test helpers).

/** A SCRAM (and PLAIN) user of the secure broker. */
export interface SecureUser {
  username: string;
  password: string;
}

/** What a client needs to connect to the secure local broker (recorded as `secure` in its state.json). */
export interface SecureBrokerInfo {
  /** SASL_SSL listener, `127.0.0.1:<port>`. */
  bootstrap: string;
  /** Mutual-TLS listener (client certificate required), `127.0.0.1:<mtlsPort>`. */
  mtlsBootstrap: string;
  mtlsPort: number;
  /** SASL mechanisms of the SASL_SSL listener. */
  mechanisms: string[];
  /** PEM of the CA that signed the broker's and the client's certificates. */
  caPath: string;
  clientCertPath: string;
  clientKeyPath: string;
  /** Principal of the client certificate on the mTLS listener, `User:sluice-mtls-client`. */
  clientPrincipal: string;
  /** PEM of an unrelated CA (a client trusting only it must reject the broker). */
  untrustedCaPath: string;
  /** Kafka client properties of the admin user (for Kafka's Java tools: --command-config). */
  adminProperties: string;
  statePath: string;
  /** `admin` (super user) and test principals without any ACL. */
  users: Record<string, SecureUser>;
}

export declare const DEFAULT_SECURE_PORT: number;
export declare const SECURE_USERS: string[];
export declare const SASL_MECHANISMS: string[];
export declare function adminClientConfig(secure: SecureBrokerInfo): {
  ssl: { ca: string[] };
  sasl: { mechanism: 'scram-sha-512'; username: string; password: string };
};
/** Adds or updates a SCRAM user on the running secure broker (a JVM; a few seconds). Needs a JDK. */
export declare function addScramUser(options: {
  secure: SecureBrokerInfo;
  username: string;
  password: string;
  mechanism?: 'SCRAM-SHA-512' | 'SCRAM-SHA-256';
  version: string;
}): void;
/** Generates the certificates and users of a secure start into `runDirectory` and renders its properties. */
export declare function prepareSecure(options: { runDirectory: string; port: number; mtlsPort: number; controllerPort: number }): {
  props: Record<string, string>;
  formatArgs: string[];
  secure: SecureBrokerInfo;
};
