/** Counts the admin clients a cluster hands out, with their describeTopic and close calls. */
import { vi } from 'vitest';
import type { AdminPort, ClusterPort } from '../../src/cluster/port.js';

/** What {@link spyOnAdmins} records; `closes()` reads the close count at call time. */
export interface AdminSpy {
  admins: AdminPort[];
  describes: string[];
  closes: () => number;
}

/** Wraps `cluster.admin()` so every admin client it creates is recorded. */
export function spyOnAdmins(cluster: ClusterPort): AdminSpy {
  const admins: AdminPort[] = [];
  const describes: string[] = [];
  let closes = 0;
  const original = cluster.admin.bind(cluster);
  vi.spyOn(cluster, 'admin').mockImplementation(() => {
    const admin = original();
    const describe = admin.describeTopic.bind(admin);
    const close = admin.close.bind(admin);
    admin.describeTopic = (topic) => (describes.push(topic), describe(topic));
    admin.close = () => (closes++, close());
    admins.push(admin);
    return admin;
  });
  return { admins, describes, closes: () => closes };
}
