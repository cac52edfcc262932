import { expect } from 'chai';
import { OptionsError, parseOptions } from '../../src/simulator/options';

describe('simulator options', () => {
  it('has defaults', () => {
    const o = parseOptions([]);
    expect(o).to.include({ url: 'http://127.0.0.1:8080/itemsense', user: 'admin', password: 'admindefault', readers: null, facility: 'DEFAULT', tags: 50, seed: 1, duration: 0, demo: false, startJob: false, timeScale: 1, progress: 'json', checkinSeconds: null });
    expect(o.families).to.deep.equal(['XARRAY', 'XSPAN', 'XPORTAL', 'SPEEDWAY']);
    expect(o.faults).to.deep.equal({});
    expect(parseOptions([], true).progress).to.equal('text');
  });

  it('parses every option', () => {
    const o = parseOptions(['--url', 'http://h:1/itemsense/', '--readers', '3', '--families', 'xarray,SPEEDWAY', '--tags', '10', '--seed', '42', '--duration', '2.5', '--demo', '--start-job', '--recipe', 'r', '--faults', 'network=0.5,restart', '--time-scale', '10', '--checkin-seconds', '1', '--progress', 'none']);
    expect(o).to.include({ url: 'http://h:1/itemsense', readers: 3, tags: 10, seed: 42, duration: 2.5, demo: true, startJob: true, recipe: 'r', timeScale: 10, checkinSeconds: 1, progress: 'none' });
    expect(o.families).to.deep.equal(['XARRAY', 'SPEEDWAY']);
    expect(o.faults).to.deep.equal({ network: 0.5, restart: 0.005 });
  });

  it('--protocol llrp with a first port and an address; agent by default', () => {
    expect(parseOptions([]).protocol).to.equal('agent');
    expect(parseOptions(['--protocol', 'llrp', '--llrp-port', '15084', '--llrp-host', '10.0.0.2'])).to.deep.include({ protocol: 'llrp', llrpPort: 15084, llrpHost: '10.0.0.2' });
  });

  it('refuses bad values with a message naming the option', () => {
    const bad: Array<[string[], RegExp]> = [
      [['--readers', '0'], /--readers must be an integer >= 1, got "0"/],
      [['--readers', '2.5'], /--readers/],
      [['--families', 'XARRAY,R700'], /--families: unknown family "R700"/],
      [['--faults', 'fire'], /--faults: unknown fault "fire"/],
      [['--faults', 'ntp=2'], /--faults ntp must be a probability/],
      [['--time-scale', '0'], /--time-scale must be a number > 0/],
      [['--url', 'ftp://x'], /--url must be an http\(s\) URL/],
      [['--progress', 'loud'], /--progress must be text, json or none/],
      [['--recipe', 'r'], /--recipe only matters with --start-job/],
      [['--nope'], /Unknown option '--nope'/],
      [['stray'], /positional/i],
      [['--protocol', 'snmp'], /--protocol must be agent or llrp or iot, got "snmp"/],
      [['--protocol', 'iot'], /--protocol iot needs --demo/],
      [['--protocol', 'iot', '--demo', '--iot-delivery', 'kafka'], /--iot-delivery must be STREAM, MQTT or WEBHOOK/],
      [['--llrp-port', '70000'], /--llrp-port must be a port 0-65535/],
    ];
    for (const [args, re] of bad) expect(() => parseOptions(args), args.join(' ')).to.throw(OptionsError, re);
  });
});
