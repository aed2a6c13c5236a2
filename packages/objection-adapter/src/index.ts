export {
  modelFromObjection,
  modelsFromObjection,
  type ObjectionAdapterOptions,
  type ObjectionModelClass,
} from './objection-models.js';
export { typeFromDatabase, typeFromJsonSchema } from './column-types.js';
