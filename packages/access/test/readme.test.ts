import { runReadmeExample } from '@colapi/readme-example';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

describe('@colapi/access README', () => {
  it('runs its example', async () => {
    await runReadmeExample(join(dirname(fileURLToPath(import.meta.url)), '..'));
  });
});
