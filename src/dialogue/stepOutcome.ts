/**
 * After a step: go on to the next step, wait for the user, or yield to the frame now on top
 * (one was pushed, or this one ended).
 */
export type StepOutcome = 'advance' | 'wait' | 'yield';
