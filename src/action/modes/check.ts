// `mode: check`: the containment suite against running containers someone else started.
import path from "node:path";
import { checkContainers, hostPathAllowances, selectionOf } from "../../commands/check.js";
import { createEngine } from "../../engine/select.js";
import { UsageError } from "../../errors.js";
import { DEFAULT_PROBE_IMAGE } from "../../suites/containment/index.js";
import { type ReportMode, reportStep } from "../report-step.js";
import type { Step } from "../step.js";

const check: ReportMode = {
  validate({ inputs }) {
    if (inputs.containers.length + inputs.containerFilters.length === 0) {
      throw new UsageError(
        "input container: mode check needs at least one running container ID or name, or a container-filter",
      );
    }
  },
  async produce({ inputs, workspace, ownDir, signal, owner }) {
    const report = await checkContainers({
      selection: selectionOf(inputs.containers, inputs.containerFilters, "input container-filter"),
      writableRoots: inputs.writableRoots,
      allowedCapabilities: inputs.allowedCapabilities,
      allowedHostPaths: hostPathAllowances(inputs.allowedHostPaths, "input allowed-host-paths"),
      network: inputs.network,
      probeImage: inputs.probeImage || DEFAULT_PROBE_IMAGE,
      engine: createEngine(inputs.engine),
      signal,
      owner,
    });
    return { report, reportDir: inputs.reportDir ? path.resolve(workspace, inputs.reportDir) : ownDir };
  },
};

export const execute = (step: Step) => reportStep(step, check);
