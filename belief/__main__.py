from belief.app.cli import main

main()
