package io.cloudg.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cloudg completion bash|zsh}: a completion script for the shell, generated from the command
 * definitions themselves (so it never lags behind a flag). Install with
 * {@code source <(cloudg completion bash)} in {@code ~/.bashrc}, or the same with {@code zsh} in {@code ~/.zshrc}.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Prints a shell completion script for cloudg's commands and flags.",
                "bash: source <(cloudg completion bash)     zsh: source <(cloudg completion zsh)"})
final class CompletionCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SHELL", description = "bash or zsh")
    String shell;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine root = spec.root().commandLine();
        String script = AutoComplete.bash("cloudg", root);
        switch (shell) {
            case "bash":
                System.out.print(script);
                return ExitCodes.OK;
            case "zsh":
                System.out.println("autoload -U +X compinit && compinit");
                System.out.println("autoload -U +X bashcompinit && bashcompinit");
                System.out.print(script);
                return ExitCodes.OK;
            default:
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "SHELL must be bash or zsh, but was \"" + shell + "\"");
        }
    }
}
