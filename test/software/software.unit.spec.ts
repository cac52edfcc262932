import { expect } from 'chai';
import { compareVersions, imageKey, listSoftwareImages, showSoftwareImage } from '../../src/software/catalog';
import { ListSoftwareParams, ShowSoftwareParams, SoftwareImage } from '../../src/software/codec';
import { decoded, leftOf, paths, refused, rightOf } from '../readerdefinitions/support';

const image = (version: string, imageType: 'FIRMWARE_READER' | 'CAP_SERVICE' = 'FIRMWARE_READER'): SoftwareImage => ({
  versionInfo: { versionIdentifier: { version, imageType }, imageName: `octane-${version}.upgx`, checksum: 'abc123' },
  description: `Octane ${version}`,
  created: '2024-01-01T00:00:00.000Z',
  updated: '2024-01-02T00:00:00.000Z',
  updateComment: null,
  recordVersionNumber: 0,
});
const images = [image('5.9.2'), image('5.10.0'), image('1.0', 'CAP_SERVICE'), image('5.10.0.240')];

describe('software/codec', () => {
  it('given a software image as the published interface shows it, when decoded, then accepted', () => {
    const json: unknown = JSON.parse(JSON.stringify(image('5.12.0')));
    expect(rightOf(SoftwareImage.decode(json))).to.deep.equal(image('5.12.0'));
  });

  it('given an unknown imageType, a bad timestamp or a negative record version, when decoded, then refused at the field', () => {
    const bad = { ...image('1'), versionInfo: { ...image('1').versionInfo, versionIdentifier: { version: '1', imageType: 'OS' } }, created: 'yesterday', recordVersionNumber: -1 };
    expect(paths(refused(SoftwareImage, bad))).to.deep.equal([
      'body.versionInfo.versionIdentifier.imageType', 'body.created', 'body.recordVersionNumber',
    ]);
  });

  it('reads imageType (and version) path parameters', () => {
    expect(decoded(ListSoftwareParams, { imageType: 'CAP_SERVICE' })).to.deep.equal({ imageType: 'CAP_SERVICE' });
    expect(paths(refused(ListSoftwareParams, { imageType: 'firmware' }))).to.deep.equal(['body.imageType']);
    expect(decoded(ShowSoftwareParams, { imageType: 'FIRMWARE_READER', version: '5.12.0' })).to.deep.equal({ imageType: 'FIRMWARE_READER', version: '5.12.0' });
  });
});

describe('software/catalog', () => {
  it('given images of both types, when listed by type, then only that type, newest version first', () => {
    expect(listSoftwareImages(images, 'FIRMWARE_READER').map((i) => i.versionInfo.versionIdentifier.version)).to.deep.equal([
      '5.10.0.240', '5.10.0', '5.9.2',
    ]);
    expect(listSoftwareImages(images, 'CAP_SERVICE')).to.have.length(1);
    expect(listSoftwareImages([], 'CAP_SERVICE')).to.deep.equal([]);
  });

  it('given an existing version, when shown, then that image; otherwise 404 naming type and version', () => {
    expect(rightOf(showSoftwareImage(images, 'FIRMWARE_READER', '5.9.2'))).to.deep.equal(image('5.9.2'));
    const error = leftOf(showSoftwareImage(images, 'CAP_SERVICE', '5.9.2'));
    expect(error.status).to.equal(404);
    expect(error.message).to.equal('Software image CAP_SERVICE 5.9.2 not found');
  });

  it('compares versions numerically per dotted part', () => {
    expect(compareVersions('5.10.0', '5.9.2')).to.equal(1);
    expect(compareVersions('5.1', '5.1.1')).to.equal(-1);
    expect(compareVersions('5.1.1', '5.1.1')).to.equal(0);
    expect(compareVersions('a', 'b')).to.equal(-1);
  });

  it('keys an image by type and version', () => {
    expect(imageKey({ imageType: 'FIRMWARE_READER', version: '5.12.0' })).to.equal('FIRMWARE_READER:5.12.0');
  });
});
