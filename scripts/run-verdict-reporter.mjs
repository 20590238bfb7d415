/**
 * A vitest reporter that writes what scripts/vitest-run.mjs decides on, at the end of the run
 * (vitest 4.1's `onTestRunEnd(testModules, unhandledErrors, reason)`), to FUNDKIT_RUN_VERDICT:
 * every test that neither passed nor was skipped (a failure, or one left pending when its worker
 * was killed), every test file that failed outside its tests, every unhandled error (an error
 * thrown after a file's tests, a worker that exited), and how many tests passed in each project
 * the run selected. vitest's JSON summary counts neither unhandled errors nor pending tests.
 */
import { writeFileSync } from 'node:fs';

const DONE = new Set(['passed', 'skipped']);

export default class RunVerdictReporter {
  vitest = null;

  onInit(vitest) {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules, unhandledErrors, reason) {
    const out = process.env.FUNDKIT_RUN_VERDICT;
    if (!out) return;
    const projects = this.vitest.projects.map((p) => p.name);
    // file filters given on the command line (vitest's own field, set once the run starts: the run
    // then covers only some projects' files). Read defensively: without it every selected project
    // must pass a test.
    const filtered = Array.isArray(this.vitest.filenamePattern) && this.vitest.filenamePattern.length > 0;
    const passedPerProject = Object.fromEntries(projects.map((name) => [name, 0]));
    const notPassed = [];
    const failedModules = [];
    for (const module of testModules) {
      const project = module.project.name;
      const file = module.moduleId;
      if (module.state() === 'failed' || module.errors().length > 0) {
        failedModules.push({ project, file, state: module.state(), errors: module.errors().map((e) => e.message) });
      }
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passedPerProject[project] = (passedPerProject[project] ?? 0) + 1;
        if (!DONE.has(state)) notPassed.push({ project, file, test: test.fullName, state });
      }
    }
    const unhandled = unhandledErrors.map((e) => ({
      message: e.message, cause: e.cause?.message ?? null, file: e.VITEST_TEST_PATH ?? null, type: e.type ?? null,
    }));
    writeFileSync(out, JSON.stringify({
      reason, filtered, projects, passedPerProject, notPassed, failedModules, unhandled,
    }, null, 1));
  }
}
