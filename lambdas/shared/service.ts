/**
 * The service name of this function, one per function, shared by its logs (`service`), its metrics (the `service`
 * dimension) and its traces (the `Service` annotation): POWERTOOLS_SERVICE_NAME when set, else the Lambda function's
 * name, else (off Lambda) `paycall`. Read once, at cold start.
 */
export const SERVICE_NAME = process.env.POWERTOOLS_SERVICE_NAME ?? process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'paycall';
