import 'commander';
