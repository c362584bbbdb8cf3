// The task registry tasks.js puts on the study page's window, which every task type's files add to (their
// StudyhiveTask typedef is in tasks.js).
declare var StudyhiveTasks: Record<string, StudyhiveTask>;
