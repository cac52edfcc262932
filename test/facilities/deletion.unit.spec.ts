import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { decideFacilityDeletion, facilityInUse, type FacilityUsage } from '../../src/facilities/deletion';

const unused: Omit<FacilityUsage, 'name'> = { readerDefinitions: [], zoneMaps: [], activeJobs: [] };

describe('facilities/deletion', () => {
  describe('facilityInUse', () => {
    it('given nothing refers to the facility, then undefined', () => {
      const usage = {
        ...unused,
        readerDefinitions: [{ name: 'r1', facility: 'OTHER' }],
        zoneMaps: [{ name: 'z1', facility: 'OTHER' }],
      };
      expect(facilityInUse({ name: 'F', ...usage })).to.equal(undefined);
    });

    it('given reader definitions, zone maps and active jobs of the facility, then all are named', () => {
      const message = facilityInUse({
        name: 'F',
        readerDefinitions: [
          { name: 'r1', facility: 'F' },
          { name: 'r2', facility: 'OTHER' },
          { name: 'r3', facility: 'F' },
        ],
        zoneMaps: [{ name: 'z1', facility: 'F' }],
        activeJobs: [{ id: 'job-1', facility: 'F' }],
      });
      expect(message).to.equal('facility "F" is used by reader definitions "r1", "r3"; zone maps "z1"; active jobs "job-1"');
    });

    it('given only a zone map, then only zone maps are named', () => {
      expect(facilityInUse({ name: 'F', ...unused, zoneMaps: [{ name: 'z', facility: 'F' }] })).to.equal(
        'facility "F" is used by zone maps "z"',
      );
    });

    it('given many users of one kind, then the message lists five and counts the rest', () => {
      const readerDefinitions = Array.from({ length: 8 }, (_, i) => ({ name: `r${i}`, facility: 'F' }));
      expect(facilityInUse({ name: 'F', ...unused, readerDefinitions })).to.equal(
        'facility "F" is used by reader definitions "r0", "r1", "r2", "r3", "r4" and 3 more',
      );
    });
  });

  describe('decideFacilityDeletion', () => {
    it('given an unused facility among several, then it may be deleted (DEFAULT included)', () => {
      const decision = decideFacilityDeletion({ name: 'DEFAULT', facilityNames: ['DEFAULT', 'F'], ...unused });
      expect(decision).to.deep.equal(E.right({ name: 'DEFAULT' }));
    });

    it('given an unknown facility, then 404', () => {
      const decision = decideFacilityDeletion({ name: 'X', facilityNames: ['DEFAULT'], ...unused });
      expect(E.isLeft(decision) && decision.left.status).to.equal(404);
    });

    it('given the last remaining facility, then 409 even when unused', () => {
      const decision = decideFacilityDeletion({ name: 'DEFAULT', facilityNames: ['DEFAULT'], ...unused });
      if (E.isRight(decision)) return expect.fail('expected a refusal');
      expect(decision.left.status).to.equal(409);
      expect(decision.left.message).to.contain('only facility');
    });

    it('given a facility in use, then 409 with the message naming what uses it', () => {
      const decision = decideFacilityDeletion({
        name: 'F',
        facilityNames: ['DEFAULT', 'F'],
        ...unused,
        activeJobs: [{ id: 'j1', facility: 'F' }],
      });
      if (E.isRight(decision)) return expect.fail('expected a refusal');
      expect(decision.left.status).to.equal(409);
      expect(decision.left.message).to.equal('facility "F" is used by active jobs "j1"');
    });
  });
});
