import { DynamoConversationStore } from '../../src/adapters/aws/dynamoConversationStore.js';
import { DynamoReplyStore } from '../../src/adapters/aws/dynamoReplyStore.js';
import { table } from './aws.js';

/** Conversations in the DynamoDB table. */
export const conversations = new DynamoConversationStore(table);
/** The replies each turn committed, which the REST webhook waits for. */
export const replies = new DynamoReplyStore(table);
