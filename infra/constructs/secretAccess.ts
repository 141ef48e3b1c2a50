import { ArnFormat, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';

/**
 * Leave to read the Secrets Manager secrets of these full names (a `*` in a name matches as in
 * IAM). Secrets Manager appends six random characters to a secret's name in its ARN.
 */
export function secretReadStatement(scope: IConstruct, names: readonly string[]): PolicyStatement {
  const stack = Stack.of(scope);
  return new PolicyStatement({
    actions: ['secretsmanager:GetSecretValue'],
    resources: names.map((name) =>
      stack.formatArn({
        service: 'secretsmanager',
        resource: 'secret',
        resourceName: `${name}-??????`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
    ),
  });
}
