// Reader software versions (read side): GET
// /configuration/v1/softwareVersions/list/{imageType} and
// show/{imageType}/{version}, over the images registered so far.
import { isLeft } from 'fp-ts/Either';
import { softwareImagePart } from '../../projections/config/software-image';
import { decodeInput } from '../core/http/decode';
import type { Slice } from '../core/slice';
import { listSoftwareImages, showSoftwareImage } from './catalog';
import { ListSoftwareParams, ShowSoftwareParams } from './codec';
import { softwareImageEntry } from './events';

export const SOFTWARE_VERSIONS_BASE = '/configuration/v1/softwareVersions';
export const SOFTWARE_ROLES = ['ConfigManager'];
const TAG = 'Reader software';
const IMAGE_TYPE = { type: 'string', enum: ['FIRMWARE_READER', 'CAP_SERVICE'] };

export const softwareSlice: Slice = {
  name: 'software',
  projectionParts: [softwareImagePart],
  register(table, deps) {
    table.add(
      {
        method: 'get', path: `${SOFTWARE_VERSIONS_BASE}/list/:imageType`, roles: SOFTWARE_ROLES, tag: TAG,
        summary: `Software images of a type (${IMAGE_TYPE.enum.join(', ')}), newest version first`,
        responses: { 200: 'array of software image', 400: 'unknown imageType' },
      },
      async (ctx) => {
        const { imageType } = decodeInput(ListSoftwareParams, { ...ctx.params }, 'params');
        ctx.body = listSoftwareImages(await deps.readModel.list(softwareImageEntry), imageType);
      },
    );
    table.add(
      {
        method: 'get', path: `${SOFTWARE_VERSIONS_BASE}/show/:imageType/:version`, roles: SOFTWARE_ROLES, tag: TAG,
        summary: 'One software image (exact version)',
        responses: { 200: 'software image', 400: 'unknown imageType', 404: 'no image of that type and version' },
      },
      async (ctx) => {
        const { imageType, version } = decodeInput(ShowSoftwareParams, { ...ctx.params }, 'params');
        const image = showSoftwareImage(await deps.readModel.list(softwareImageEntry), imageType, version);
        if (isLeft(image)) throw image.left;
        ctx.body = image.right;
      },
    );
  },
};
