import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { StatefulStack } from './statefulStack.js';

/** The CDK app: `npx cdk synth` / `npx cdk deploy`. cdk-nag's AWS Solutions checks run in synth. */
export function buildApp(app: App = new App()): App {
  new StatefulStack(app, 'SwitchboardState', {
    description: 'Switchboard: conversation table and job queues',
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return app;
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(path.resolve(entry)).href) buildApp().synth();
