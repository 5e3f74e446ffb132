import { expect } from '@open-wc/testing';
import { sandboxUrl } from '/__gw/sandbox.js';
import { merchantCall } from '../support/gateway.js';

describe('browser test harness', () => {
  it('runs in Chromium with a sandbox on loopback', async () => {
    expect(navigator.userAgent).to.contain('Chrome');
    expect(new URL(sandboxUrl).hostname).to.equal('127.0.0.1');
    const answer = await merchantCall('GET', '/v1/payments/unknown');
    expect(answer.body.result.code).to.match(/^\d{3}\.\d{3}\.\d{3}$/);
  });
});
