import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '../../../tools/pg-topology/topology.sh');

/**
 * tools/pg-topology as a test drives it: brought up when it is not running, and brought down afterwards
 * only by the test that brought it up. Ports and directory follow the script's environment variables.
 */
export class Topology {
  env: Record<string, string> = {};
  private startedHere = false;

  /** False (and the suite skipped) where it cannot run: not root, or no PgBouncer; under CI that throws. */
  available(context: Mocha.Context): boolean {
    if (process.getuid?.() === 0 && commandExists('pgbouncer')) return true;
    if (process.env.CI === 'true') throw new Error('the topology tests need root and pgbouncer (.ci/run installs it)');
    console.warn('  ! not root or no pgbouncer: skipping the topology tests');
    context.skip();
    return false;
  }

  up(): void {
    if (!this.running()) {
      this.run('up');
      this.startedHere = true;
    }
    this.env = Object.fromEntries(
      this.run('env')
        .trim()
        .split('\n')
        .map((line) => line.split('=') as [string, string]),
    );
  }

  down(): void {
    if (this.startedHere) this.run('down');
    this.startedHere = false;
  }

  stopReplica(): void {
    this.run('stop-replica');
  }

  startReplica(): void {
    this.run('start-replica');
  }

  private running(): boolean {
    try {
      this.run('status');
      return true;
    } catch {
      return false;
    }
  }

  private run(command: string): string {
    return execFileSync('bash', [SCRIPT, command], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  }
}

function commandExists(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
