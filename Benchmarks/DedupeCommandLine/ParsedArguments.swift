/// The arguments of one subcommand after parsing: options, read through their `OptionSpec`, and
/// positionals in order.
package struct ParsedArguments: Sendable, Equatable {
    /// Values of options that take one, by name, in the order given.
    private var valuesByName: [String: [String]] = [:]
    /// Names of the flags that were present.
    private var flagNames: Set<String> = []
    package var positionals: [String] = []

    package init() {}

    /// Parses `arguments` against `options`.
    ///
    /// Accepts `--name VALUE`, `--name=VALUE`, `-x VALUE` and `--` (everything after is
    /// positional). A lone `-` is a positional (standard output or input). Throws
    /// `CommandLineError` for an unknown option, a missing value, a value given to a flag, or
    /// a non-repeatable option given twice.
    ///
    /// - Complexity: O(arguments × options).
    package init(_ arguments: [String], options: [OptionSpec]) throws(CommandLineError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inlineValue: String?
            let spec: OptionSpec?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                spec = options.first { $0.name == name }
            } else {
                name = String(argument.dropFirst())
                spec = name.count == 1 ? options.first { $0.short == name.first } : nil
            }
            guard let spec else {
                throw CommandLineError(.unknownOption, "unknown option '\(argument.prefix(while: { $0 != "=" }))'")
            }
            let display = "--\(spec.name)"
            guard spec.repeatable || (valuesByName[spec.name] == nil && !flagNames.contains(spec.name)) else {
                throw CommandLineError(.badValue, "option '\(display)' given more than once")
            }
            guard spec.valueName != nil else {
                if inlineValue != nil {
                    throw CommandLineError(.badValue, "option '\(display)' takes no value")
                }
                flagNames.insert(spec.name)
                continue
            }
            if let inlineValue {
                valuesByName[spec.name, default: []].append(inlineValue)
            } else if index < arguments.count, !arguments[index].hasPrefix("-") || arguments[index] == "-" {
                valuesByName[spec.name, default: []].append(arguments[index])
                index += 1
            } else {
                throw CommandLineError(.missingValue, "option '\(display)' needs a value (\(spec.valueName!))")
            }
        }
    }

    /// Whether the flag `flag` was given.
    package func has(_ flag: OptionSpec) -> Bool {
        flagNames.contains(flag.name)
    }

    /// Every value of `option`, in the order given; empty when absent.
    package func values(_ option: OptionSpec) -> [String] {
        valuesByName[option.name] ?? []
    }

    /// The last value of `option`, if given.
    package func value(_ option: OptionSpec) -> String? {
        valuesByName[option.name]?.last
    }

    /// Parses the value of `option` with `convert`, or returns `fallback` when absent. A value
    /// `convert` rejects is a `badValue` error naming `expectation`.
    package func value<T>(_ option: OptionSpec, default fallback: T, expecting expectation: String, _ convert: (String) -> T?) throws(CommandLineError) -> T {
        guard let text = value(option) else { return fallback }
        guard let converted = convert(text) else {
            throw CommandLineError(.badValue, "invalid value '\(text)' for '--\(option.name)': expected \(expectation)")
        }
        return converted
    }

    /// Exactly `names.count` positionals, or a `missingArgument` / `unexpectedArgument` error.
    package func positionals(named names: [String]) throws(CommandLineError) -> [String] {
        if positionals.count < names.count {
            throw CommandLineError(.missingArgument, "missing argument \(names[positionals.count])")
        }
        if positionals.count > names.count {
            throw CommandLineError(.unexpectedArgument, "unexpected argument '\(positionals[names.count])'")
        }
        return positionals
    }
}
