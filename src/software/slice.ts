// Reader software versions: GET
// /configuration/v1/softwareVersions/list/{imageType} and
// show/{imageType}/{version} over the images registered so far, and the
// Admin's POST create that registers one (register.ts).
import { isLeft } from 'fp-ts/Either';
import { runCommand } from '../core/command';
import { decodeInput } from '../core/http/decode';
import { commandMetadata } from '../core/resource/routes';
import type { Slice } from '../slice';
import { listSoftwareImages, showSoftwareImage } from './catalog';
import { ListSoftwareParams, ShowSoftwareParams } from './codec';
import { softwareImageEntry, softwareImageEvents, softwareImageStream } from './events';
import { decideImage, evolveImage, RegisterImageBody, registerImageBodySchema } from './register';

export const SOFTWARE_VERSIONS_BASE = '/configuration/v1/softwareVersions';
export const SOFTWARE_ROLES = ['ConfigManager'];
/** Registering images is for the Admin only. */
export const SOFTWARE_REGISTER_ROLES = ['Admin'];
const TAG = 'Reader software';
const IMAGE_TYPE = { type: 'string', enum: ['FIRMWARE_READER', 'CAP_SERVICE'] };

/** A software image as every route answers it (SoftwareImage in ./codec.ts). */
const SOFTWARE_IMAGE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['versionInfo', 'description', 'created', 'updated', 'updateComment', 'recordVersionNumber'],
  properties: {
    versionInfo: {
      type: 'object',
      additionalProperties: false,
      required: ['versionIdentifier', 'imageName', 'checksum'],
      properties: {
        versionIdentifier: {
          type: 'object',
          additionalProperties: false,
          required: ['version', 'imageType'],
          properties: { version: { type: 'string', minLength: 1 }, imageType: IMAGE_TYPE },
        },
        imageName: { type: 'string' },
        checksum: { type: 'string', description: 'SHA-256 of the image' },
      },
    },
    description: { type: 'string' },
    created: { type: 'string', format: 'date-time' },
    updated: { type: 'string', format: 'date-time' },
    updateComment: { type: 'string', nullable: true },
    recordVersionNumber: { type: 'integer', minimum: 0 },
  },
};

export const softwareSlice: Slice = {
  name: 'software',
  register(table, deps) {
    table.add(
      {
        method: 'get', operationId: 'listSoftwareVersions', path: `${SOFTWARE_VERSIONS_BASE}/list/:imageType`, roles: SOFTWARE_ROLES, tag: TAG,
        summary: `Software images of a type (${IMAGE_TYPE.enum.join(', ')}), newest version first`,
        responses: { 200: { description: 'array of software image', schema: { type: 'array', items: SOFTWARE_IMAGE_SCHEMA } }, 400: 'unknown imageType' },
      },
      async (ctx) => {
        const { imageType } = decodeInput(ListSoftwareParams, { ...ctx.params }, 'params');
        ctx.body = listSoftwareImages(await deps.readModel.list(softwareImageEntry), imageType);
      },
    );
    table.add(
      {
        method: 'get', operationId: 'showSoftwareVersion', path: `${SOFTWARE_VERSIONS_BASE}/show/:imageType/:version`, roles: SOFTWARE_ROLES, tag: TAG,
        summary: 'One software image (exact version)',
        responses: { 200: { description: 'software image', schema: SOFTWARE_IMAGE_SCHEMA }, 400: 'unknown imageType', 404: 'no image of that type and version' },
      },
      async (ctx) => {
        const { imageType, version } = decodeInput(ShowSoftwareParams, { ...ctx.params }, 'params');
        const image = showSoftwareImage(await deps.readModel.list(softwareImageEntry), imageType, version);
        if (isLeft(image)) throw image.left;
        ctx.body = image.right;
      },
    );
    table.add(
      {
        method: 'post', operationId: 'createSoftwareVersion', path: `${SOFTWARE_VERSIONS_BASE}/create`, roles: SOFTWARE_REGISTER_ROLES, tag: TAG,
        summary: 'Register a software image (version identifier, image name, SHA-256 checksum, description); Admin only',
        body: registerImageBodySchema,
        responses: { 200: { description: 'the registered software image', schema: SOFTWARE_IMAGE_SCHEMA }, 400: 'invalid image', 409: 'that version of that image type is already registered' },
      },
      async (ctx) => {
        const body = decodeInput(RegisterImageBody, ctx.request.body, 'body');
        const result = await runCommand(deps.client, {
          stream: softwareImageStream(body.versionInfo.versionIdentifier), codecs: softwareImageEvents,
          decider: { initialState: undefined, evolve: evolveImage, decide: decideImage },
          retries: 0, conflict: 'the software image was registered concurrently',
        }, { kind: 'Register', body }, { metadata: commandMetadata(ctx), waiter: deps.waiter });
        if (isLeft(result)) throw result.left;
        ctx.body = result.right.state;
      },
    );
  },
};
