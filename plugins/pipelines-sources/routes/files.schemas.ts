// joi schemas of the upload routes (and so of the OpenAPI document).
import Joi from 'joi';

export const fileParams = Joi.object({ file_id: Joi.string().guid().required() });
export const uploadQuery = Joi.object({
  name: Joi.string().min(1).max(255).default('upload').description('The file\'s name, for people (the id is what a source names)'),
});
export const sourceFile = Joi.object({
  id: Joi.string().guid().description('Put it in a csv source\'s source_config.file_id'),
  name: Joi.string(),
  content_type: Joi.string(),
  size_bytes: Joi.number().integer(),
  created_by: Joi.string().allow(null),
  created_at: Joi.date(),
}).label('SourceFile');
